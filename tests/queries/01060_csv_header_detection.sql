-- format/infer: CSV without explicit format should detect the header line (a Nullable(Int64), b Nullable(String)); shale gives c1/c2 String
DESCRIBE file('data/t_1.csv');
