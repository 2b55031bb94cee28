-- 'and' and 'or' return one of their operands, not a boolean
print(1 and 2, nil and 2, false and 2)
print(1 or 2, nil or 2, false or nil)
print(nil and nil, false or false)
