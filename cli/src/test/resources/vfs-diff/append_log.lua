for run = 1, 3 do
  local log = assert(io.open("out/app.log", "a"))
  log:write(string.format("run %d: started\n", run))
  for i = 1, run do log:write("  step ", i, "\n") end
  log:close()
end
local n, steps = 0, 0
for line in io.lines("out/app.log") do
  n = n + 1
  if line:find("step") then steps = steps + 1 end
end
print(n, steps)
local f = io.open("out/app.log", "a+")
print(f:read("l"))
f:write("appended at the end\n")
f:seek("set")
local all = f:read("a")
print(#all, select(2, all:gsub("\n", "")))
f:close()
