-- goto can leave several nested loops at once
for i = 1, 3 do
  for j = 1, 3 do
    if i * j == 4 then
      print("found", i, j)
      goto done
    end
  end
end
::done::
print("end")
