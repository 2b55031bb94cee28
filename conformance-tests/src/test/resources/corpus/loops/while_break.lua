-- break leaves the innermost loop
local i = 0
while true do
  i = i + 1
  if i == 5 then break end
end
print(i)
