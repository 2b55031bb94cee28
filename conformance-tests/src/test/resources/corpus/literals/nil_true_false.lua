-- the three constant literals and their types
print(nil, true, false)
print(type(nil), type(true), type(false))
print(nil == false, true == 1)
