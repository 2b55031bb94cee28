-- gmatch with position captures lists match offsets
local out = {}
for p in string.gmatch("banana", "()an") do out[#out + 1] = p end
print(table.concat(out, ","))
