-- uncaught error with level 2 points at the caller
local function validate(v) if type(v) ~= "number" then error("number expected", 2) end end
print("validating")
validate("oops")
