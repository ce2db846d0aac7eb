#include "report/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/html.hpp"

namespace sched::report {

std::string grid(const std::vector<GridCell>& cells, int rows, int cols, const std::string& row_label, const std::string& col_label) {
  rows = std::max(rows, 1);
  cols = std::max(cols, 1);
  // squares of 6 to 28 px, the whole map at most about 900 px wide
  int s = std::clamp(900 / cols, 6, 28);
  int left = 40, top = 24;
  int w = left + cols * s + 10, h = top + rows * s + 10;
  std::string out = fmt::format(R"(<svg class="chart" width="{}" height="{}" viewBox="0 0 {} {}" xmlns="http://www.w3.org/2000/svg">)", w, h, w, h);
  out += fmt::format(R"(<text x="{}" y="14" class="axis">{} &#8594;</text>)", left, escape(col_label));
  out += fmt::format(R"~(<text x="12" y="{}" class="axis" transform="rotate(-90 12 {})">&#8592; {}</text>)~", top + rows * s, top + rows * s, escape(row_label));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      size_t k = static_cast<size_t>(r) * static_cast<size_t>(cols) + static_cast<size_t>(c);
      if (k >= cells.size()) break;
      out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#fff" stroke-width="1"><title>{}</title></rect>)", left + c * s,
                         top + r * s, s, s, escape(cells[k].color), escape(cells[k].title));
    }
  return out + "</svg>";
}

std::string bars(const std::vector<Bar>& items, const std::string& unit) {
  double top = 0;
  for (const auto& b : items) top = std::max(top, b.value);
  if (top <= 0) top = 1;
  int label_w = 220, bar_w = 480, row = 24;
  int h = static_cast<int>(items.size()) * row + 10;
  std::string out = fmt::format(R"(<svg class="chart" width="{}" height="{}" xmlns="http://www.w3.org/2000/svg">)", label_w + bar_w + 120, h);
  for (size_t i = 0; i < items.size(); ++i) {
    const Bar& b = items[i];
    int y = static_cast<int>(i) * row + 4;
    int len = static_cast<int>(std::lround(b.value / top * bar_w));
    std::string title = b.title.empty() ? fmt::format("{}: {:g} {}", b.label, b.value, unit) : b.title;
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="label">{}</text>)", label_w - 8, y + 15, escape(b.label));
    out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="18" fill="{}"><title>{}</title></rect>)", label_w, y, std::max(len, 1), escape(b.color),
                       escape(title));
    out += fmt::format(R"(<text x="{}" y="{}" class="value">{:g} {}</text>)", label_w + std::max(len, 1) + 6, y + 15, b.value, escape(unit));
  }
  return out + "</svg>";
}

std::string line(const std::vector<std::pair<double, double>>& points, const std::string& x_label, const std::string& y_label) {
  int w = 720, h = 260, left = 60, bottom = 36, top = 16, right = 20;
  double xmax = 0, ymax = 0;
  for (const auto& [x, y] : points) {
    xmax = std::max(xmax, x);
    ymax = std::max(ymax, y);
  }
  if (xmax <= 0) xmax = 1;
  if (ymax <= 0) ymax = 1;
  auto px = [&](double x) { return left + x / xmax * (w - left - right); };
  auto py = [&](double y) { return h - bottom - y / ymax * (h - bottom - top); };
  std::string out = fmt::format(R"(<svg class="chart" width="{}" height="{}" xmlns="http://www.w3.org/2000/svg">)", w, h);
  out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="axisline"/>)", left, h - bottom, w - right, h - bottom);
  out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="axisline"/>)", left, top, left, h - bottom);
  out += fmt::format(R"~(<text x="{}" y="{}" class="axis" text-anchor="middle">{} (0 to {:.3g})</text>)~", (left + w - right) / 2, h - 8, escape(x_label), xmax);
  out += fmt::format(R"~(<text x="14" y="{}" class="axis" transform="rotate(-90 14 {})" text-anchor="middle">{} (0 to {:.3g})</text>)~", (top + h - bottom) / 2,
                     (top + h - bottom) / 2, escape(y_label), ymax);
  std::string path;
  for (const auto& [x, y] : points) path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "" : " ", px(x), py(y));
  out += fmt::format(R"(<polyline points="{}" fill="none" stroke="#4a7bd0" stroke-width="2"/>)", path);
  for (const auto& [x, y] : points)
    out += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="#4a7bd0"><title>{}: {:.3g}, {}: {:.3g}</title></circle>)", px(x), py(y),
                       escape(x_label), x, escape(y_label), y);
  return out + "</svg>";
}

std::string timeline(const std::vector<std::string>& lanes, const std::vector<Step>& steps) {
  int label_w = 90, box = std::clamp(900 / std::max<int>(static_cast<int>(steps.size()), 1), 8, 36), row = 26;
  int w = label_w + static_cast<int>(steps.size()) * box + 20, h = static_cast<int>(lanes.size()) * row + 24;
  std::string out = fmt::format(R"(<svg class="chart" width="{}" height="{}" xmlns="http://www.w3.org/2000/svg">)", w, h);
  for (size_t l = 0; l < lanes.size(); ++l) {
    int y = static_cast<int>(l) * row;
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="end" class="label">{}</text>)", label_w - 8, y + 17, escape(lanes[l]));
    out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="lane"/>)", label_w, y + 12, w - 10, y + 12);
  }
  for (size_t k = 0; k < steps.size(); ++k) {
    int y = steps[k].lane * row;
    out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="18" rx="3" fill="{}"><title>step {}: {}</title></rect>)",
                       label_w + static_cast<int>(k) * box + 1, y + 3, box - 2, steps[k].marked ? "#d9534f" : "#4a7bd0", k + 1,
                       escape(steps[k].title));
  }
  out += fmt::format(R"(<text x="{}" y="{}" class="axis">steps &#8594;</text>)", label_w, h - 4);
  return out + "</svg>";
}

}  // namespace sched::report
