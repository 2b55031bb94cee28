-- runtime errors in loaded chunks use the chunk name
local f = load("local t = nil\nreturn t.x", "=(mychunk)")
print(pcall(f))
local g = load("error('e')")
print(pcall(g))
