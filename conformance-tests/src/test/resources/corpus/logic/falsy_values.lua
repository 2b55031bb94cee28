-- only nil and false are false; 0, "" and empty tables are true
for _, v in ipairs({0, "", "false", 0.0}) do
  print(type(v), v and "truthy" or "falsy")
end
print(nil and "truthy" or "falsy")
print(false and "truthy" or "falsy")
