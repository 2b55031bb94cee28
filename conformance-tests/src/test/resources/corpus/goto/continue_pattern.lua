-- goto to a label at the end of the loop body emulates 'continue'
for i = 1, 6 do
  if i % 2 == 0 then goto continue end
  print(i)
  ::continue::
end
