-- a while loop with both break and continue-like gotos
local out = {}
local i = 0
while true do
  i = i + 1
  if i > 8 then break end
  if i % 3 == 0 then goto skip end
  out[#out + 1] = i
  ::skip::
end
print(table.concat(out, ","))
