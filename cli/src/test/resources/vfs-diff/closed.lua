local function show(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end print(table.concat(t, " | ")) end
local f = io.open("data/plain.txt")
local it = f:lines()
show(it())
show(f:close())
show(io.type(f), tostring(f))
for _, m in ipairs({"read", "write", "lines", "seek", "setvbuf", "flush", "close"}) do
  show(m, pcall(f[m], f))
end
show(pcall(it))
show(pcall(io.close, f))
show(pcall(io.lines, "data/plain.txt", "x"))
local it2 = io.lines("data/plain.txt")
while it2() do end
show(pcall(it2))
local g = io.open("data/plain.txt")
local n = 0
for l in g:lines() do n = n + 1 end
show(n, io.type(g))
show(g:read("a"), g:read("l"))
g:close()
