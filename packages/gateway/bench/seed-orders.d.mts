export function seedOrdersStatement(
  dialect: "sqlite" | "postgres",
  options: {
    partnerId: string;
    count: number;
    firstNumber?: number;
    endAt: number;
    days?: number;
    statusEvery?: number;
    orderedIds?: boolean;
  },
): { sql: string; params: unknown[] };
