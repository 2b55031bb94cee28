-- break only exits the innermost loop
for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then break end
    print(i, j)
  end
end
