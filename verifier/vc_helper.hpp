// A second process that proves every other verification condition while the verifier proves
// the rest: on two cores a proof takes about half the time. The helper is a fork of the
// verifier taken at its first z3 query, so it holds the same VCs and the same z3 context; it
// answers its VCs in order, each as the verifier would (every z3 query in a child of its own,
// isolated.hpp), and streams each answer back as a line of JSON. The verifier takes the answers
// in the VCs' order, so its verdict, problems and report are the ones a single process gives.
//
//   VcHelper h({1, 3, 5}, [&](size_t k) { return smt.check(*order[k], k, ms); });
//   auto a = h.answer(3, deadline);  // VC 3's SmtAnswer and seconds, or nullopt (see answer)
//
// The helper is killed when the VcHelper is destroyed (the verification ended, or a refutation
// made the remaining answers unneeded) and when sched ends.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

#include "verifier/smt.hpp"

namespace sched::verify {

class VcHelper {
 public:
  using Check = std::function<SmtAnswer(size_t k)>;
  // Forks the helper, which runs `check` on each of `mine` in order. Not started when the fork
  // fails (started() is false: the caller checks every VC itself).
  VcHelper(const std::vector<size_t>& mine, const Check& check);
  ~VcHelper();
  VcHelper(const VcHelper&) = delete;
  VcHelper& operator=(const VcHelper&) = delete;

  bool started() const { return pid_ > 0; }
  // The helper ended (or never started): what it has not answered, the caller checks.
  bool ended() const { return ended_ || pid_ <= 0; }
  // VC k's answer and the seconds it took, waiting until `deadline` at most; nullopt when the
  // deadline passed first or the helper ended without answering k (the caller then checks it).
  std::optional<std::pair<SmtAnswer, double>> answer(size_t k, std::chrono::steady_clock::time_point deadline);

  // An answer as one line of JSON and back (exposed for the tests).
  static std::string encode(size_t k, const SmtAnswer& a, double seconds);
  static bool decode(const std::string& line, size_t& k, SmtAnswer& a, double& seconds);

 private:
  void stop();
  pid_t pid_ = -1;
  int fd_ = -1;
  bool ended_ = false;  // the pipe reached its end: no more answers
  std::string buf_;
  std::map<size_t, std::pair<SmtAnswer, double>> got_;
};

}  // namespace sched::verify
