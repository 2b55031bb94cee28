local f = assert(io.open("out/large.txt", "w"))
local line = string.rep("0123456789", 10) .. "\n"
for i = 1, 20000 do f:write(line) end
print(f:seek())
f:close()
f = io.open("out/large.txt")
local all = f:read("a")
print(#all, all:sub(-12))
f:seek("set", 1234567)
print(f:read(20))
print(f:read("l"))
local count = 0
for l in io.lines("out/large.txt") do count = count + 1 end
print(count)
f:close()
local g = io.open("out/large.txt", "a")
g:write("tail")
g:close()
print(io.open("out/large.txt"):seek("end"))
print(os.remove("out/large.txt"))
