print(math.maxinteger + 1 == math.mininteger, 1 // 0.0, -1 % math.huge, math.mininteger // -1, 7 >> 63, 1 << 64, 2^63 == math.maxinteger + 1.0)
print(pcall(function() return 1 // 0 end), pcall(function() return 1.5 | 0 end), math.tointeger(2^53), 0x7fffffffffffffff, 1e308 * 10)
for i = math.maxinteger - 2, math.maxinteger do print(i) if i == math.maxinteger then break end end
