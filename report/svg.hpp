// Inline SVG charts for the HTML reports (report/pages.hpp): no library, no network, every mark
// with a <title> (the browser shows it on hover).
//
//   grid(cells, rows, cols, ...)   a heat map: one square per cell, its colour and hover text
//   bars(items, ...)               horizontal bars with their values (findings per oracle, ...)
//   line(points, ...)              a polyline with axes (cases per second over time)
//   timeline(lanes, steps, ...)    per-thread lanes, one box per step (an interleaving)
//
// Example: a 2 x 3 map with one red cell
//   std::vector<GridCell> c(6, {"#ddd", "equal"});
//   c[4] = {"#d33", "c[1, 1] = 2, expected 3"};
//   std::string svg = grid(c, 2, 3, "rows: i", "columns: j");
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace sched::report {

struct GridCell {
  std::string color;  // CSS colour
  std::string title;  // hover text
};
std::string grid(const std::vector<GridCell>& cells, int rows, int cols, const std::string& row_label, const std::string& col_label);

struct Bar {
  std::string label;
  double value = 0;
  std::string color = "#4a7bd0";
  std::string title;  // hover text (default: label and value)
};
std::string bars(const std::vector<Bar>& items, const std::string& unit);

std::string line(const std::vector<std::pair<double, double>>& points, const std::string& x_label, const std::string& y_label);

struct Step {
  int lane = 0;        // the thread's row
  std::string title;   // hover text (statement, cells)
  bool marked = false; // drawn in the accent colour (a step that differs between two schedules)
};
std::string timeline(const std::vector<std::string>& lanes, const std::vector<Step>& steps);

}  // namespace sched::report
