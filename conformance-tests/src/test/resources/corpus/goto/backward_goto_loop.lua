-- a backward goto forms a loop
local i = 1
::top::
if i <= 3 then
  print("iteration", i)
  i = i + 1
  goto top
end
print("after")
