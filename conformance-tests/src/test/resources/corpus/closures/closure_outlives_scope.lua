-- a closure keeps working after the block that created it ends
local f
do
  local secret = "hidden"
  f = function() return secret end
end
print(f())
