local f = assert(io.open("out/bytes.bin", "wb"))
for i = 0, 255 do f:write(string.char(i)) end
for i = 1, 10 do f:write(string.pack("<i4d", i, i / 3)) end
f:close()
f = io.open("out/bytes.bin", "rb")
local head = f:read(256)
local ok = true
for i = 0, 255 do if head:byte(i + 1) ~= i then ok = false end end
print(#head, ok)
local sum = 0
while true do
  local rec = f:read(12)
  if not rec then break end
  local n, x = string.unpack("<i4d", rec)
  sum = sum + n + x
end
print(sum, f:seek())
f:seek("set", 256 + 12 * 4)
print(string.unpack("<i4d", f:read(12)))
f:seek("set", 10)
print(f:read("l"):byte(1, -1))
print(f:read("n"))
f:close()
local nul = io.open("out/nul.txt", "w")
nul:write("a\0b\nc\0\n")
nul:close()
for l in io.lines("out/nul.txt") do print(#l, (l:gsub("%z", "<0>"))) end
