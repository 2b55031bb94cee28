-- the loop variable shadows an outer local with the same name
local i = "outer"
for i = 1, 2 do print(i) end
print(i)
