-- table.concat converts numbers like tostring
print(table.concat({1, 2.0, -0.0, 1e100, 2^63}, " "))
