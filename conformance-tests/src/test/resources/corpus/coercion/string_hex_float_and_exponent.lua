-- strings may hold hex floats and exponents
print(tonumber("0x1p4"), tonumber("0xA.8"), tonumber("1E2"), tonumber(".5"), tonumber("5."))
print(tonumber("0x"), tonumber("1e"), tonumber("inf"), tonumber("nan"))
