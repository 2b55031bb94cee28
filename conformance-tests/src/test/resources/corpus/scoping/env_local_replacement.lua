-- globals are resolved through _ENV; a local _ENV changes them
local print = print
do
  local _ENV = {y = "from custom env"}
  x = 5
  print(y, x)
end
print(x)
