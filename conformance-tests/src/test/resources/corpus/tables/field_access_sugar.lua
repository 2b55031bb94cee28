-- t.name is sugar for t["name"]
local t = {}
t.name = "v"
print(t["name"])
t["with space"] = 1
print(t["with space"])
print(t.nonexistent == t["nonexistent"])
