-- inner declarations shadow outer ones until their block ends
local v = 1
do
  local v = v + 1
  do
    local v = v + 1
    print(v)
  end
  print(v)
end
print(v)
