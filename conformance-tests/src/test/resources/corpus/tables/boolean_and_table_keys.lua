-- any value except nil and NaN can be a key
local k = {}
local t = {[true] = "yes", [false] = "no", [k] = "table key", [1.5] = "float key"}
print(t[true], t[false], t[k], t[1.5])
print(t[{}])
