// Replays files (or every file of a directory) through LLVMFuzzerTestOneInput, for compilers
// without libFuzzer; ctest runs it on examples/.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void one(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
}

int main(int argc, char** argv) {
  int n = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::directory_iterator(p)) if (e.is_regular_file()) { one(e.path()); ++n; }
    } else {
      one(p);
      ++n;
    }
  }
  std::printf("replayed %d input(s)\n", n);
  return n > 0 ? 0 : 1;
}
