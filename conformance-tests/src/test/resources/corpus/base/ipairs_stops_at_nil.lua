-- ipairs stops at the first nil value
local n = 0
for i, v in ipairs({1, 2, nil, 4}) do n = i end
print(n)
