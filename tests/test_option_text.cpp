// The text of options (interpreter/option_text.hpp): whole text or nothing, never a prefix's
// value, a wrapped value or a value past a limit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "interpreter/option_text.hpp"

namespace ot = sched::option_text;

TEST(OptionText, SecondsAreDecimalNumbersWithinTheLimit) {
  EXPECT_EQ(ot::seconds("2.5", false), 2.5);
  EXPECT_EQ(ot::seconds("1e9", false), 1e9);
  EXPECT_EQ(ot::seconds(".5", false), 0.5);
  EXPECT_EQ(ot::seconds("0", true), 0.0);
  for (const char* bad : {"0", "", "-1", "+1", " 1", "1 ", "1s", "nan", "inf", "1e10", "1e400", "0x10", "1,5", "."})
    EXPECT_FALSE(ot::seconds(bad, false)) << bad;
  EXPECT_FALSE(ot::seconds("-0", true));
}

TEST(OptionText, DurationsTakeAUnit) {
  EXPECT_EQ(ot::duration("90"), 90.0);
  EXPECT_EQ(ot::duration("90s"), 90.0);
  EXPECT_EQ(ot::duration("10m"), 600.0);
  EXPECT_EQ(ot::duration("2min"), 120.0);
  EXPECT_EQ(ot::duration("1.5h"), 5400.0);
  for (const char* bad : {"", "0", "0s", "-5m", "10 m", "10ms", "10M", "h", "1e9h", "nan", "inf", "1e400s"})
    EXPECT_FALSE(ot::duration(bad)) << bad;
}

TEST(OptionText, ShardsAreWholeNumbersWithTheIndexBelowTheCount) {
  auto s = ot::shard("3/8");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 3u);
  EXPECT_EQ(s->count, 8u);
  EXPECT_TRUE(ot::shard("0/1"));
  EXPECT_TRUE(ot::shard("999999/1000000"));
  // sscanf("%u/%u") read the first four as 1/2, 4294967295/2, 1/2 and 1/2
  for (const char* bad : {"1/2x", "-1/2", " 1/2", "1/ 2", "8/8", "0/0", "1", "/2", "1/", "1//2", "+1/2", "0/1000001",
                          "0/4294967296", "0/99999999999999999999"})
    EXPECT_FALSE(ot::shard(bad)) << bad;
}

TEST(OptionText, BindingsHoldEvery64BitValueAndNoMore) {
  auto b = ot::binding("N=-64");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "N");
  EXPECT_EQ(b->value, -64);
  EXPECT_EQ(ot::binding("N=9223372036854775807")->value, INT64_MAX);
  EXPECT_EQ(ot::binding("N=-9223372036854775808")->value, INT64_MIN);
  EXPECT_EQ(ot::binding("A=B=1"), std::nullopt);  // the value is "B=1"
  for (const char* bad : {"N", "=1", "N=", "N=9223372036854775808", "N=-9223372036854775809", "N=99999999999999999999",
                          "N=+1", "N= 1", "N=1 ", "N=1.0", "N=0x10", "N=--1", "N=-"})
    EXPECT_FALSE(ot::binding(bad)) << bad;
}

TEST(OptionText, SizesTakeBinaryUnitsAndNeverWrap) {
  EXPECT_EQ(ot::size("4096"), 4096u);
  EXPECT_EQ(ot::size("512M"), uint64_t{512} << 20);
  EXPECT_EQ(ot::size("4G"), uint64_t{4} << 30);
  EXPECT_EQ(ot::size("16777215T"), uint64_t{16777215} << 40);
  for (const char* bad : {"0", "", "-1G", "1Q", "1 G", "1g", "16777216T", "99999999999999999999", "1.5G"})
    EXPECT_FALSE(ot::size(bad)) << bad;
}

TEST(OptionText, WholeNumbersAreDigitsWithinTheRange) {
  EXPECT_EQ(ot::whole("12", 1, 100), 12u);
  EXPECT_EQ(ot::whole("1", 1, 1), 1u);
  for (const char* bad : {"0", "101", "+12", "-12", "12 ", "1e2", "", "18446744073709551616"})
    EXPECT_FALSE(ot::whole(bad, 1, 100)) << bad;
}
