-- assert raises its message, or 'assertion failed!'
print(pcall(assert, false))
print(pcall(assert, nil, "custom message"))
print(pcall(assert, 1 == 1, "unused"))
print(select(2, pcall(assert, false, {1})) ~= nil)
