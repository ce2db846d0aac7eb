// Named parts in registration order, the built-in ones first: the oracles (oracle.hpp) and the
// front ends (frontend.hpp). A deque: a registration keeps the parts already there where they are,
// so pointers from find() stay valid.
//
//   Registry<FrontEnd> r({scheduler_front_end()}, "front end");
//   r.add(std::move(f), static_cast<bool>(f.import));   // throws on a taken or empty name
//   const FrontEnd* s = r.find("sched");
#pragma once
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sched::driver {

template <class Part>
class Registry {
 public:
  Registry(std::deque<Part> built_in, std::string what) : parts_(std::move(built_in)), what_(std::move(what)) {}

  // `complete`: the part has what it needs to work (an oracle's run, a front end's import).
  void add(Part p, bool complete) {
    if (p.name.empty() || !complete) throw std::invalid_argument("a " + what_ + " needs a name and its work");
    if (find(p.name)) throw std::invalid_argument("a " + what_ + " named '" + p.name + "' is registered already");
    parts_.push_back(std::move(p));
  }
  const Part* find(std::string_view name) const {
    for (const auto& p : parts_)
      if (p.name == name) return &p;
    return nullptr;
  }
  const std::deque<Part>& all() const { return parts_; }

 private:
  std::deque<Part> parts_;
  std::string what_;
};

}  // namespace sched::driver
