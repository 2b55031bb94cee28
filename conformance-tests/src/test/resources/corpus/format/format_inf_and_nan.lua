-- infinities format as 'inf'; NaN is avoided because its sign is platform dependent
print(string.format("%f %e %g", 1/0, -1/0, 1/0))
print(string.format("%.1f", math.huge))
