-- numeric for does not coerce strings
print(pcall(function() for i = "1", 2 do end end))
print(pcall(function() for i = 1, "2" do end end))
print(pcall(function() for i = 1, 2, "1" do end end))
