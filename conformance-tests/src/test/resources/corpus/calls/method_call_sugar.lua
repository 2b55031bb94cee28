-- obj:m(args) is obj.m(obj, args) with obj evaluated once
local evals = 0
local obj = {v = 7}
function obj.get(self, add) return self.v + add end
local function getobj() evals = evals + 1; return obj end
print(getobj():get(1))
print(evals)
print(obj.get(obj, 2))
