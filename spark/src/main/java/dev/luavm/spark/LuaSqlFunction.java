package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.TypedAccess;
import dev.luavm.host.Results;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.expressions.CreateStruct;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.collection.immutable.Seq;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SQL function of {@link LuaSpark#register}: {@code lua(script, arg1, ..., argN)} runs the
 * script in a fresh sandbox with the arguments as {@code ...} and returns its first result as
 * text, or NULL with a logged reason when the call fails.
 *
 * <p>Java UDFs have a fixed arity, and this function is variadic: it is registered as a
 * two-argument UDF (the script, and a struct of the arguments) and then re-registered under the
 * same name with a builder that packs {@code arg1 .. argN} into that struct, so SQL sees
 * {@code lua(...)} with 0 to {@value LuaSpark#MAX_SQL_ARGUMENTS} arguments after the script. This
 * uses the session's function registry ({@code sessionState().functionRegistry()}), so it needs a
 * classic session, not Spark Connect.
 */
final class LuaSqlFunction implements UDF2<String, Row, String> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LuaSqlFunction.class);
    /** failures logged at WARN per JVM; later ones at DEBUG, so a bad script over a big table cannot flood the log */
    static final long WARN_LIMIT = 1000;
    private static final AtomicLong FAILURES = new AtomicLong();

    private final String name;
    private final CapabilitiesFactory factory;
    private final Limits limits;
    /** built once per deserialized copy (per task) from the factory */
    private transient Capabilities capabilities;

    LuaSqlFunction(String name, CapabilitiesFactory factory, Limits limits) {
        this.name = name;
        this.factory = factory;
        this.limits = limits;
    }

    @Override
    public String call(String script, Row args) {
        if (script == null) return null;
        if (capabilities == null) capabilities = factory.get();
        StructType schema = args.schema();
        List<Object> luaArgs = new ArrayList<>(args.length());
        for (int i = 0; i < args.length(); i++) {
            DataType t = schema != null ? schema.fields()[i].dataType() : null;
            luaArgs.add(SparkToLua.value(args.get(i), t));
        }
        RowEvaluator.Outcome o;
        try {
            o = new RowEvaluator(name, script, capabilities, limits, LuaSpark.DEFAULT_CLOCK, false)
                    .run(RowSeeds.seed(script, luaArgs), LuaSqlFunction::text, luaArgs.toArray());
        } catch (dev.luavm.LuaException e) { // the script does not compile
            o = new RowEvaluator.Outcome(null, e.getMessage(), 0, 0, "");
        }
        if (!o.failed()) return (String) o.outputs()[0];
        long n = FAILURES.incrementAndGet();
        if (n <= WARN_LIMIT) {
            LOG.warn("{}(...) returned NULL: {}{}", name, o.error(),
                    n == WARN_LIMIT ? " (later failures are logged at DEBUG)" : "");
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("{}(...) returned NULL: {}", name, o.error());
        }
        return null;
    }

    /** The first result as text: nil or none NULL, a number as tostring prints it, a table as JSON. */
    private static Object[] text(Results results) throws LuaToSpark.Mismatch {
        Object v = results.isEmpty() ? null : results.get(0);
        String s;
        if (v == null) s = null;
        else if (v instanceof String str) s = str;
        else if (v instanceof Number n) s = TypedAccess.numberToString(n);
        else if (v instanceof Boolean b) s = b.toString();
        else if (v instanceof byte[]) throw new LuaToSpark.Mismatch("result: string is not valid UTF-8");
        else s = LuaJson.write(v);
        return new Object[] {s};
    }

    /** Registers {@code f} under its name, variadic (see the class comment). */
    static void register(SparkSession spark, LuaSqlFunction f) {
        if (!(spark instanceof org.apache.spark.sql.classic.SparkSession classic)) {
            throw new IllegalArgumentException("LuaSpark.register needs a classic SparkSession (not Spark Connect): got "
                    + spark.getClass().getName());
        }
        spark.udf().register(f.name, f, DataTypes.StringType);
        FunctionRegistry registry = classic.sessionState().functionRegistry();
        // a temporary function lives in the session namespace of the system catalog (system.session.lua)
        FunctionIdentifier id = new FunctionIdentifier(f.name, scala.Option.apply(CatalogManager.SESSION_NAMESPACE()),
                scala.Option.apply(CatalogManager.SYSTEM_CATALOG_NAME()));
        scala.Function1<Seq<Expression>, Expression> udf = registry.lookupFunctionBuilder(id).get();
        String name = f.name;
        scala.Function1<Seq<Expression>, Expression> variadic = children -> {
            int n = children.size();
            if (n < 1 || n > LuaSpark.MAX_SQL_ARGUMENTS + 1) {
                throw new IllegalArgumentException(name + "(script, ...) takes a script and at most "
                        + LuaSpark.MAX_SQL_ARGUMENTS + " arguments after it; got " + n + " arguments in all");
            }
            Expression script = children.head();
            if (!(script.dataType() instanceof StringType) && !script.dataType().equals(DataTypes.NullType)) {
                throw new IllegalArgumentException(name + "(script, ...): the script must be a STRING, got "
                        + script.dataType().sql());
            }
            @SuppressWarnings("unchecked") Seq<Expression> rest = (Seq<Expression>) children.tail();
            Expression packed = CreateStruct.apply(rest);
            return udf.apply(scala.jdk.javaapi.CollectionConverters.asScala(List.of(script, packed)).toList());
        };
        registry.createOrReplaceTempFunction(f.name, variadic, "java_udf");
    }
}
