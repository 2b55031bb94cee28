-- a continue label at the end of a block may follow local declarations
local i = 0
while i < 5 do
  i = i + 1
  local sq = i * i
  if sq % 2 == 0 then goto continue end
  print(sq)
  ::continue::
end
