-- write a file in several pieces, read it back every way
local function show(...) local t = table.pack(...) for i = 1, t.n do t[i] = tostring(t[i]) end print(table.concat(t, " | ")) end
local f = assert(io.open("out/notes.txt", "w"))
show(io.type(f))
show(f:write("first line\n", "second ", 2, " ", 3.5, "\n") == f)
show(f:write("third\n"):write("fourth without newline"))
show(f:seek("cur"), f:seek("end"), f:seek("set"))
show(f:close(), io.type(f))
f = assert(io.open("out/notes.txt", "r"))
show(f:read())
show(f:read("L"))
show(f:read("l", "l"))
show(f:read("l"))
show(f:read("a"))
show(f:read("a"), f:read("l"), f:read(0), f:read(5))
f:seek("set", 6)
show(f:read(4), f:seek())
show(f:read(0))
f:close()
for line in io.lines("out/notes.txt") do show("line", #line, line) end
for a, b in io.lines("out/notes.txt", 5, "l") do show(a, b) end
local g = io.open("out/notes.txt")
local count = 0
for l in g:lines("L") do count = count + #l end
show(count, io.type(g), g:read("a"))
g:close()
