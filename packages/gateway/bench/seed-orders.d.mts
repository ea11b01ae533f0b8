export function seedOrdersStatement(
  dialect: "sqlite" | "postgres",
  options: {
    partnerId: string;
    count: number;
    firstNumber?: number;
    endAt: number;
    days?: number;
    statusEvery?: number;
  },
): { sql: string; params: unknown[] };
