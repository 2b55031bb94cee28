-- the handler receives non-string error values unchanged
print(xpcall(function() error({1, 2, 3}) end, function(e) return #e end))
