-- string.byte returns codes for a range of positions
print(string.byte("ABC"))
print(string.byte("ABC", 2))
print(string.byte("ABC", 1, 3))
print(string.byte("ABC", -1))
print(string.byte("ABC", 2, -1))
print(select("#", string.byte("ABC", 4)))
print(select("#", string.byte("")))
