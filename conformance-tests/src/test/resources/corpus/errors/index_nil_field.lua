-- indexing a nil field names the field
print(pcall(function() local t = {}; return t.z.w end))
