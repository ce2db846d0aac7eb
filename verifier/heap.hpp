// Symbolic heaps and their operations (thesis 5.2): isl union maps from array spaces a[...]
// to template spaces _E<k>[holes] (templates.hpp); free variables of Γ are isl parameters.
#pragma once
#include <string>

#include <isl/cpp.h>

namespace sched::verify {

using Heap = isl::union_map;   // ĥ: locations -> symbolic values
using Locs = isl::union_set;   // sets of symbolic locations
using SVal = isl::union_set;   // a symbolic value (not necessarily single-valued)

// Def 5.2.2: ĥ1 ▷ ĥ2 = ĥ2 ∪ (ĥ1 − dom(ĥ2)).
Heap update(const Heap& h1, const Heap& h2);

// ⋃_{x ∈ range} of a relation/set with free variable x: bind x to `range` (a parameter set
// constraining x), then eliminate it (existential projection).
Heap union_over(const Heap& h, const std::string& x, const isl::set& range);
isl::union_set union_over(const isl::union_set& s, const std::string& x, const isl::set& range);
// Eliminates parameter x (∃x).
Heap project_param(const Heap& h, const std::string& x);
isl::union_set project_param(const isl::union_set& s, const std::string& x);

// Renames free variable `from` to `to` (a fresh name): R[x := y].
Heap rename_param(const Heap& h, const std::string& from, const std::string& to);
isl::union_set rename_param(const isl::union_set& s, const std::string& from, const std::string& to);

// Def 5.2.3: ĥ[x := r] where r maps each location a[...] to the value [x] to substitute
// (single-valued; locations outside dom(r) drop out). x must be a parameter of ĥ.
Heap substitute(const Heap& h, const std::string& x, const isl::union_map& r);

// Def 5.2.4: ▶_{x ∈ range} ĥ = ĥ[x := lexmax(bind_{x ∈ range}(dom ĥ))]: for each location,
// the value written by the last x that writes it.
Heap iterated_update(const Heap& h, const std::string& x, const isl::set& range);

// The single-valued choice v (5.2): keeps, for each location, one of its symbolic values.
Heap choose(const Heap& h);

// ĥ \ a: drops the locations of array tuple `a` (S-ALLOCATE).
Heap remove_array(const Heap& h, const std::string& a);
isl::union_set remove_array(const isl::union_set& s, const std::string& a);

}  // namespace sched::verify
