-- a small report: read a CSV, aggregate, write a report next to it, keep the last one as a backup
local totals, order = {}, {}
local header
for line in io.lines("data/sales.csv") do
  if not header then
    header = line
  else
    local region, amount = line:match("^([^,]+),([%d.]+)$")
    if region then
      if not totals[region] then totals[region] = 0; order[#order + 1] = region end
      totals[region] = totals[region] + tonumber(amount)
    end
  end
end
os.remove("out/report.bak")
os.rename("out/report.txt", "out/report.bak")
local out = assert(io.open("out/report.txt", "w"))
out:write("region,total\n")
for _, r in ipairs(order) do out:write(string.format("%s,%.2f\n", r, totals[r])) end
out:close()
local f = io.open("out/report.txt")
print(f:read("a"))
f:close()
print(io.open("out/report.bak"))
