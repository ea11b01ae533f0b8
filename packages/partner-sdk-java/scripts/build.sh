#!/usr/bin/env bash
# Builds the Java SDK with the JDK alone (javac and jar: no plugins to resolve) into
# build/orderline-partner-0.1.0.jar, and its tests into build/test-classes against JUnit 5's
# console launcher (Debian's junit5 package, or JUNIT_CONSOLE_JAR). One run at a time; the jar is
# touched after the test classes are compiled, so its age stands for both.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.1.0
JUNIT_CONSOLE_JAR="${JUNIT_CONSOLE_JAR:-/usr/share/java/junit-platform-console-standalone.jar}"

mkdir -p build
exec 9>build/.lock
flock 9

# Up to date (nothing under src/ newer than the jar): leave the build alone, so tests running
# its classes beside this call are not pulled from under them.
JAR="build/orderline-partner-$VERSION.jar"
if [ -f "$JAR" ] && [ -d build/test-classes ] && [ -z "$(find src LICENSE -newer "$JAR" -print -quit)" ]; then
  echo "$JAR (up to date)"
  exit 0
fi
rm -rf build/classes build/test-classes
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -d build/classes $(find src/main/java -name '*.java')
jar --create --file "build/orderline-partner-$VERSION.jar" -C build/classes . LICENSE
if [ -f "$JUNIT_CONSOLE_JAR" ]; then
  javac --release 17 -encoding UTF-8 -d build/test-classes \
    -cp "build/orderline-partner-$VERSION.jar:$JUNIT_CONSOLE_JAR" $(find src/test/java -name '*.java')
fi
touch "$JAR"
echo "$JAR"
