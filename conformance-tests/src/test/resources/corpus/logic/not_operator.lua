-- 'not' returns true only for nil and false
print(not nil, not false)
print(not 0, not "", not {})
print(not not nil, not not 1)
