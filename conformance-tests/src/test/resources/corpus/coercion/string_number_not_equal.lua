-- equality never coerces: "10" is not 10
print("10" == 10, 10 == "10")
local t = {}
t[10] = "number key"
t["10"] = "string key"
print(t[10], t["10"])
