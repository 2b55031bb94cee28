-- float to string conversion uses %.14g plus '.0' for integral values
print(3.0 .. "", 3.5 .. "", 1e15 .. "", 1e16 .. "")
print(0.1 + 0.2 .. "")
print(1/0 .. "", -1/0 .. "")
