// NumPy arrays to and from the interpreter's tensors, for the Python module (python/module.cpp).
//
//   to_npy(obj)       a NumPy array (or anything np.asarray accepts: lists, scalars) as an input
//                     tensor's data: C order, native byte order, one of the value types of
//                     docs/language.md (bool, int8..64, uint8..64, float32, float64); any other
//                     dtype (float16, complex, object) is refused with a message naming it. The
//                     values are copied once, into canonical bit patterns (NpyArray::bits), which
//                     is what the specification model reads; no conversion of the values (a
//                     float64 array for an f32 tensor is refused by the instance, not rounded).
//   to_numpy(a)       a global array after a run: its values (⊥ cells as 0) in the NumPy dtype of
//                     its element type, in C order, with the array's shape
//   defined_mask(a)   which cells are defined (a bool array of the same shape)
//
// Example: the input `A` of a program from a float32 matrix, and its output back
//
//   NpyArray in = to_npy(np_array);                // float32, shape (4, 8)
//   model.data["A"] = std::move(in);
//   ...
//   py::array out = to_numpy(run.final.arrays[i]); // float32, the output's shape
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "interpreter/npy.hpp"
#include "interpreter/setup.hpp"

namespace sched::python {

NpyArray to_npy(const pybind11::handle& obj, const std::string& tensor);
pybind11::array to_numpy(const ArrayState& a);
pybind11::array defined_mask(const ArrayState& a);

}  // namespace sched::python
