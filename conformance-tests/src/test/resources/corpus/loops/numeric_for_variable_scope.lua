-- the loop variable is local to the loop
i = "global"
for i = 1, 2 do end
print(i)
