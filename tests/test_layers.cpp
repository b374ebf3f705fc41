// The folders of runtime/src/ include one another only as docs/ARCHITECTURE.md's "Folders" table
// says: each row's "depends on" column names, in backticks, the folders (`folder`), single files
// (`folder/file.hpp`) and public headers beyond its place (`rdx/x.hpp`) its folder may include; a
// folder always includes itself. The public headers' table gives each public header the lowest
// folder that may include it: a folder includes those whose folder it reaches through the
// "depends on" column. The tables are read from the page, so the page and the code cannot drift
// apart. tests/layers_nm.py checks the same table against the objects' symbols (link time).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The repository's root: this file is tests/test_layers.cpp.
fs::path repo_root() {
  return fs::path(__FILE__).parent_path().parent_path();
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// What one folder may include: whole folders, and single files of others.
struct Allowed {
  std::set<std::string> folders, files, headers;  // headers: public ones, "rdx/x.hpp"
};

// The lines of docs/ARCHITECTURE.md's "## Folders" section, after its heading, up to the next
// "## " heading: where both tables below are read.
std::vector<std::string> folders_section(const std::string& page) {
  const std::size_t start = page.find("\n## Folders");
  REQUIRE(start != std::string::npos);
  std::istringstream lines(page.substr(start + 1));
  std::string line;
  std::getline(lines, line);  // the heading
  std::vector<std::string> out;
  while (std::getline(lines, line) && line.rfind("## ", 0) != 0)
    out.push_back(line);
  return out;
}

// The public headers' table: each header ("rdx/x.hpp") and the lowest folder that may include it
// ("" for none: the umbrella).
std::map<std::string, std::string> read_homes(const std::string& page) {
  std::map<std::string, std::string> homes;
  const std::regex row(R"(^\|((?:\s*`[a-z_]+\.hpp`,?)+)\s*\|\s*(`([a-z_]+)`|[^|`]*)\s*\|\s*$)");
  const std::regex header(R"(`([a-z_]+\.hpp)`)");
  for (const std::string& line : folders_section(page)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    const std::string cell = m[1];
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), header);
         it != std::sregex_iterator(); ++it)
      homes["rdx/" + (*it)[1].str()] = m[3].matched ? m[3].str() : "";
  }
  return homes;
}

// The "Folders" table's rows for runtime/src/<folder>/, by folder. In the "depends on" cell, a
// source folder's name in backticks (`folder`) allows that folder; `folder/file` that one file;
// `rdx/x.hpp` that public header. Other words (MPI, prose) allow nothing more.
std::map<std::string, Allowed> read_table(const std::string& page,
                                          const std::set<std::string>& folders) {
  std::map<std::string, Allowed> table;
  const std::regex row(R"(^\|\s*`runtime/src/([a-z_]+)/`\s*\|.*\|([^|]*)\|\s*$)");
  const std::regex name(R"(`([a-z_]+)(/[a-z_]+\.[a-z]+)?`)");
  for (const std::string& line : folders_section(page)) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    Allowed& a = table[m[1]];
    const std::string cell = m[2];
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), name);
         it != std::sregex_iterator(); ++it) {
      const std::string folder = (*it)[1];
      if (folder == "rdx" && (*it)[2].matched) a.headers.insert("rdx" + (*it)[2].str());
      if (!folders.count(folder)) continue;
      if ((*it)[2].matched)
        a.files.insert(folder + (*it)[2].str());
      else
        a.folders.insert(folder);
    }
  }
  return table;
}

struct Include {
  std::string from;  // path under runtime/src
  std::string to;    // as written: folder/file
};

std::vector<Include> source_includes(const fs::path& src) {
  std::vector<Include> all;
  const std::regex inc(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const auto& e : fs::recursive_directory_iterator(src)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp" && ext != ".h") continue;
    std::istringstream lines(slurp(e.path()));
    std::string line;
    while (std::getline(lines, line)) {
      std::smatch m;
      if (std::regex_search(line, m, inc))
        all.push_back({fs::relative(e.path(), src).generic_string(), m[1]});
    }
  }
  return all;
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// The folders `from` reaches through the table: its own, those its row allows (whole, or one of
// their files), the folders of the public headers its row names, and theirs in turn.
std::set<std::string> reached(const std::map<std::string, Allowed>& table,
                              const std::map<std::string, std::string>& homes,
                              const std::string& from) {
  std::set<std::string> seen{from};
  std::vector<std::string> todo{from};
  while (!todo.empty()) {
    const std::string f = todo.back();
    todo.pop_back();
    const auto row = table.find(f);
    if (row == table.end()) continue;
    std::set<std::string> next = row->second.folders;
    for (const std::string& file : row->second.files)
      next.insert(folder_of(file));
    for (const std::string& h : row->second.headers) {
      const auto home = homes.find(h);
      if (home != homes.end() && !home->second.empty()) next.insert(home->second);
    }
    for (const std::string& n : next)
      if (seen.insert(n).second) todo.push_back(n);
  }
  return seen;
}

}  // namespace

TEST_CASE("layers: runtime/src's folders include only what ARCHITECTURE.md's table allows") {
  const fs::path root = repo_root();
  const fs::path src = root / "runtime" / "src";
  REQUIRE(fs::is_directory(src));
  std::set<std::string> folders;
  for (const auto& e : fs::directory_iterator(src))
    if (e.is_directory()) folders.insert(e.path().filename().string());
  REQUIRE(folders.count("core"));
  const auto table = read_table(slurp(root / "docs" / "ARCHITECTURE.md"), folders);
  for (const std::string& f : folders) {
    INFO("runtime/src/" << f << "/ has no row in the Folders table");
    CHECK(table.count(f));
  }
  const std::vector<Include> includes = source_includes(src);
  CHECK(includes.size() > 100);  // the walk found the sources
  std::size_t checked = 0;
  for (const Include& i : includes) {
    const std::string from = folder_of(i.from), to = folder_of(i.to);
    // Standard and third-party headers, a folder's own files; the public API (rdx/): below.
    if (to.empty() || to == "rdx" || !folders.count(to) || to == from) continue;
    ++checked;
    const auto row = table.find(from);
    const bool allowed =
        row != table.end() && (row->second.folders.count(to) || row->second.files.count(i.to));
    INFO("runtime/src/" << i.from << " includes \"" << i.to
                        << "\", which its row's \"depends on\" does not allow");
    CHECK(allowed);
  }
  CHECK(checked > 50);
}

TEST_CASE("layers: the Folders table's dependencies point one way (no cycle among the folders)") {
  const fs::path root = repo_root();
  const fs::path src = root / "runtime" / "src";
  std::set<std::string> folders;
  for (const auto& e : fs::directory_iterator(src))
    if (e.is_directory()) folders.insert(e.path().filename().string());
  const std::string page = slurp(root / "docs" / "ARCHITECTURE.md");
  const auto table = read_table(page, folders);
  const auto homes = read_homes(page);
  // A folder's edges: the folders it may include, whole or one file of.
  std::map<std::string, std::set<std::string>> edges;
  for (const auto& [from, a] : table) {
    for (const std::string& f : a.folders)
      if (f != from) edges[from].insert(f);
    for (const std::string& f : a.files)
      if (folder_of(f) != from) edges[from].insert(folder_of(f));
    for (const std::string& h : a.headers) {
      const auto home = homes.find(h);
      if (home != homes.end() && !home->second.empty() && home->second != from)
        edges[from].insert(home->second);
    }
  }
  // Depth-first search: a folder met again while it is on the path closes a cycle.
  std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
  std::vector<std::string> path;
  std::string cycle;
  std::function<void(const std::string&)> visit = [&](const std::string& f) {
    state[f] = 1;
    path.push_back(f);
    for (const std::string& to : edges[f]) {
      if (!cycle.empty()) break;
      if (state[to] == 1) {
        for (auto it = std::find(path.begin(), path.end(), to); it != path.end(); ++it)
          cycle += *it + " -> ";
        cycle += to;
      } else if (state[to] == 0) {
        visit(to);
      }
    }
    path.pop_back();
    state[f] = 2;
  };
  for (const auto& [f, _] : table)
    if (state[f] == 0 && cycle.empty()) visit(f);
  INFO("a cycle: " << cycle);
  CHECK(cycle.empty());
  CHECK(edges.size() >= 8);  // the table was read
}

TEST_CASE("layers: runtime/src's folders include only the public headers their place allows") {
  const fs::path root = repo_root();
  const fs::path src = root / "runtime" / "src";
  const fs::path include = root / "runtime" / "include" / "rdx";
  std::set<std::string> folders;
  for (const auto& e : fs::directory_iterator(src))
    if (e.is_directory()) folders.insert(e.path().filename().string());
  const std::string page = slurp(root / "docs" / "ARCHITECTURE.md");
  const auto table = read_table(page, folders);
  const auto homes = read_homes(page);
  // Every public header has a row, and every row's folder is a folder of runtime/src/.
  std::size_t headers = 0;
  for (const auto& e : fs::directory_iterator(include)) {
    const std::string h = "rdx/" + e.path().filename().string();
    ++headers;
    INFO(h << " has no row in the public headers' table");
    CHECK(homes.count(h));
  }
  CHECK(headers >= 20);
  for (const auto& row : homes) {
    // Not a structured binding: clang 14 cannot capture one in INFO's lambda.
    const std::string &h = row.first, &home = row.second;
    INFO(h << "'s folder `" << home << "` is not a folder of runtime/src/");
    CHECK((home.empty() || folders.count(home)));
    INFO(h << " in the public headers' table is not in runtime/include/rdx/");
    CHECK(fs::exists(include / fs::path(h).filename()));
  }
  std::size_t checked = 0;
  for (const Include& i : source_includes(src)) {
    if (folder_of(i.to) != "rdx") continue;
    ++checked;
    const std::string from = folder_of(i.from);
    const auto home = homes.find(i.to);
    const auto row = table.find(from);
    const bool named = row != table.end() && row->second.headers.count(i.to);
    const bool allowed = home != homes.end() && !home->second.empty() &&
                         (named || reached(table, homes, from).count(home->second));
    INFO("runtime/src/" << i.from << " includes \"" << i.to << "\", whose place ("
                        << (home == homes.end()    ? "no row"
                            : home->second.empty() ? "none"
                                                   : "`" + home->second + "`")
                        << ") runtime/src/" << from << "/ does not reach");
    CHECK(allowed);
  }
  CHECK(checked > 50);
}
