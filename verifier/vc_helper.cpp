#include "verifier/vc_helper.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <nlohmann/json.hpp>

#include "interpreter/child.hpp"

namespace sched::verify {

namespace {

const char* status_word(SmtAnswer::Status s) {
  switch (s) {
    case SmtAnswer::Status::Proved: return "proved";
    case SmtAnswer::Status::Refuted: return "refuted";
    case SmtAnswer::Status::Unknown: return "unknown";
  }
  return "unknown";
}

}  // namespace

std::string VcHelper::encode(size_t k, const SmtAnswer& a, double seconds) {
  nlohmann::json j;
  j["k"] = k;
  j["seconds"] = seconds;
  j["status"] = status_word(a.status);
  j["reason"] = a.reason;
  j["ints"] = a.ints;
  j["lhs"] = a.lhs;
  j["rhs"] = a.rhs;
  j["holes"] = a.holes;
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& in : a.inputs) inputs.push_back({{"tensor", in.tensor}, {"points", in.points}, {"other", in.other}});
  j["inputs"] = std::move(inputs);
  j["whatever_unannotated"] = a.whatever_unannotated;
  j["undefined_side"] = a.undefined_side;
  // invalid UTF-8 in z3's text (a reason) is replaced, never a throw in the helper
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool VcHelper::decode(const std::string& line, size_t& k, SmtAnswer& a, double& seconds) {
  try {
    nlohmann::json j = nlohmann::json::parse(line);
    k = j.at("k").get<size_t>();
    seconds = j.at("seconds").get<double>();
    std::string s = j.at("status").get<std::string>();
    a.status = s == "proved" ? SmtAnswer::Status::Proved : s == "refuted" ? SmtAnswer::Status::Refuted : SmtAnswer::Status::Unknown;
    a.reason = j.at("reason").get<std::string>();
    a.ints = j.at("ints").get<std::vector<std::pair<std::string, std::string>>>();
    a.lhs = j.at("lhs").get<std::string>();
    a.rhs = j.at("rhs").get<std::string>();
    a.holes = j.at("holes").get<std::vector<std::string>>();
    a.inputs.clear();
    for (const auto& in : j.at("inputs")) {
      InputModel m;
      m.tensor = in.at("tensor").get<std::string>();
      m.points = in.at("points").get<std::vector<std::pair<std::vector<int64_t>, std::string>>>();
      m.other = in.at("other").get<std::string>();
      a.inputs.push_back(std::move(m));
    }
    a.whatever_unannotated = j.at("whatever_unannotated").get<bool>();
    a.undefined_side = j.at("undefined_side").get<int>();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

VcHelper::VcHelper(const std::vector<size_t>& mine, const Check& check) {
  Spawned s = spawn_child([&](int fd) {
    for (size_t k : mine) {
      auto t0 = std::chrono::steady_clock::now();
      SmtAnswer a = check(k);
      write_all(fd, encode(k, a, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()));
    }
    return 0;
  });
  pid_ = s.pid;
  fd_ = s.fd;
}

VcHelper::~VcHelper() { stop(); }

void VcHelper::stop() {
  if (pid_ <= 0) return;
  close(fd_);
  kill(pid_, SIGKILL);
  while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {}
  pid_ = -1;
  fd_ = -1;
}

std::optional<std::pair<SmtAnswer, double>> VcHelper::answer(size_t k, std::chrono::steady_clock::time_point deadline) {
  while (!got_.count(k) && !ended_ && pid_ > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return std::nullopt;
    pollfd pf{fd_, POLLIN, 0};
    int r = poll(&pf, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno != EINTR) { ended_ = true; break; }
    if (r <= 0) continue;
    char b[65536];
    ssize_t n = read(fd_, b, sizeof b);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) { ended_ = true; break; }
    buf_.append(b, static_cast<size_t>(n));
    for (size_t nl; (nl = buf_.find('\n')) != std::string::npos;) {
      size_t at = 0;
      SmtAnswer a;
      double seconds = 0;
      if (decode(buf_.substr(0, nl), at, a, seconds)) got_[at] = {std::move(a), seconds};
      buf_.erase(0, nl + 1);
    }
  }
  auto it = got_.find(k);
  if (it == got_.end()) return std::nullopt;
  return it->second;
}

}  // namespace sched::verify
