-- reading a missing key gives nil, even with nil or NaN as the key
local t = {}
print(t.missing, t[1], t[nil])
print(t[0/0])
