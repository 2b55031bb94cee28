local f = assert(io.open("out/record.dat", "w"))
for i = 1, 10 do f:write(string.format("%04d:%-10s\n", i, "item" .. i)) end
f:close()
-- patch record 5 in place
f = assert(io.open("out/record.dat", "r+"))
f:seek("set", 16 * 4)
print(f:read("l"))
f:seek("set", 16 * 4)
f:write(string.format("%04d:%-10s\n", 5, "PATCHED"))
f:seek("set", 0)
local n = 0
for line in f:lines() do n = n + 1 if line:find("PATCHED") then print(n, line) end end
f:close()
-- rename while open, keep reading through the handle
local r = io.open("out/record.dat")
print(r:read("l"))
print(os.rename("out/record.dat", "out/moved.dat"))
print(r:read("l"))
print(io.open("out/record.dat"))
r:close()
-- numbers from lines
local nums = io.open("out/nums.txt", "w")
nums:write("1\n2\n3.5\n  4\n0x10\n")
nums:close()
local s = 0
for v in io.lines("out/nums.txt", "n") do s = s + v end
print(s)
for a, b in io.lines("out/nums.txt", "n", "n") do print(a, b) end
print(io.open("data"))
local d = io.open("data/")
print(d:read("n"))
d:close()
