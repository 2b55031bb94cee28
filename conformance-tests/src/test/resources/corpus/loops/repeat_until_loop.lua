-- repeat/until with a counter
local i = 10
repeat
  print(i)
  i = i - 3
until i < 0
